! doors.f90: program doors (doors.fpo) from Fortran on arrays with explicit bounds, two runs
! against the same loops in Fortran, bit for bit. Prints 'fortran doors: OK'.
program fortran_doors
  use, intrinsic :: iso_c_binding
  use doors_fpo
  implicit none
  integer, parameter :: is = 1, ie = 7, js = 1, je = 5, npz = 3
  integer, parameter :: isd = is - 1, ied = ie + 1, jsd = js - 1, jed = je + 1
  real(c_double), allocatable, target :: q(:, :, :), out(:, :, :), area(:, :), wk(:), &
      small(:, :, :)
  integer(c_int32_t), allocatable, target :: n(:, :, :), m(:, :, :)
  real(c_double) :: want, w(2) = [0.25d0, -1.5d0]
  integer(c_int32_t) :: c(2) = [3, -7]
  type(doors_fields) :: f
  type(fpo_error) :: err
  type(c_ptr) :: p
  integer :: i, j, k, r, bad
  integer(c_int) :: st

  allocate(q(isd:ied, jsd:jed, npz), out(isd:ied, jsd:jed, npz), area(isd:ied, jsd:jed))
  allocate(wk(npz), n(isd:ied, jsd:jed, npz), m(isd:ied, jsd:jed, npz))
  call random_number(q)
  call random_number(area)
  call random_number(wk)
  n = int(q * 100, c_int32_t) - 50
  out = 0
  m = 0
  f%q = fpo_field_of(q, is, js)
  f%area = fpo_field_of(area, is, js)
  f%wk = fpo_field_of(wk)
  f%n = fpo_field_of(n, is, js)
  f%out = fpo_field_of(out, is, js)
  f%m = fpo_field_of(m, is, js)
  if (doors_open(p, fpo_domain_local(ie - is + 1, je - js + 1, npz), f, err) /= FPO_OK) &
      call fail(err)
  bad = 0
  do r = 1, 2
    if (doors_run(p, w(r), c(r), err) /= FPO_OK) call fail(err)
    do k = 1, npz
      do j = js, je
        do i = is, ie
          want = q(i, j, k) + w(r) * area(i, j) * wk(k) * (q(i - 1, j, k) + q(i + 1, j, k) + &
              q(i, j - 1, k) + q(i, j + 1, k) - 4.0d0 * q(i, j, k))
          if (out(i, j, k) /= want .or. m(i, j, k) /= n(i, j, k) * c(r)) bad = bad + 1
        end do
      end do
    end do
  end do
  call doors_close(p)
  ! an array without the west halo the program reads: open refuses it, naming it
  allocate(small(is:ied, jsd:jed, npz))
  f%q = fpo_field_of(small, is, js)
  st = doors_open(p, fpo_domain_local(ie - is + 1, je - js + 1, npz), f, err)
  if (st /= FPO_ESHAPE .or. index(fpo_message(err), "'q'") == 0) then
    print '(a, i0, a)', "fortran doors: not refused as expected (", st, "): " // fpo_message(err)
    bad = bad + 1
  end if
  deallocate(q, out, area, wk, small, n, m)
  if (bad /= 0) then
    print '(a, i0, a)', "fortran doors: ", bad, " points or checks differ"
    error stop 1
  end if
  print '(a)', "fortran doors: OK"

contains

  subroutine fail(e)
    type(fpo_error), intent(in) :: e
    print '(a)', "fortran doors: " // fpo_message(e)
    error stop 1
  end subroutine fail
end program fortran_doors
