! doors.f90: program doors (doors.fpo) from Fortran on arrays with explicit bounds, two runs
! against the same loops in Fortran, bit for bit. Prints 'fortran doors: OK'. With an argument
! ("device"), the fields are marked device memory (fpo_field_on_device) and run on the CUDA
! back end: an emulated build's, whose device memory is host memory (prints 'fortran doors
! (device fields): OK').
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
  type(fpo_options) :: opt
  character(kind=c_char), target :: cuda(5) = ['c', 'u', 'd', 'a', c_null_char]
  logical :: device
  type(fpo_error) :: err
  type(c_ptr) :: p
  integer :: i, j, k, r, bad
  integer(c_int) :: st

  device = command_argument_count() > 0
  if (device) opt%backend = c_loc(cuda)
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
  if (device) call on_device(f)
  if (doors_open_with(p, fpo_domain_local(ie - is + 1, je - js + 1, npz), f, opt, err) &
      /= FPO_OK) call fail(err)
  bad = 0
  if (c_associated(doors_stream(p))) bad = bad + 1   ! the C back end, or an emulated CUDA one
  ! runs after the work on a stream of the caller's (here the program's own: nothing to do)
  if (doors_after(p, doors_stream(p), err) /= FPO_OK) call fail(err)
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
  if (device) f%q = fpo_field_on_device(f%q)
  st = doors_open_with(p, fpo_domain_local(ie - is + 1, je - js + 1, npz), f, opt, err)
  if (st /= FPO_ESHAPE .or. index(fpo_message(err), "'q'") == 0) then
    print '(a, i0, a)', "fortran doors: not refused as expected (", st, "): " // fpo_message(err)
    bad = bad + 1
  end if
  deallocate(q, out, area, wk, small, n, m)
  if (bad /= 0) then
    print '(a, i0, a)', "fortran doors: ", bad, " points or checks differ"
    error stop 1
  end if
  if (device) then
    print '(a)', "fortran doors (device fields): OK"
  else
    print '(a)', "fortran doors: OK"
  end if

contains

  subroutine on_device(g)
    type(doors_fields), intent(inout) :: g
    g%q = fpo_field_on_device(g%q)
    g%area = fpo_field_on_device(g%area)
    g%wk = fpo_field_on_device(g%wk)
    g%n = fpo_field_on_device(g%n)
    g%out = fpo_field_on_device(g%out)
    g%m = fpo_field_on_device(g%m)
  end subroutine on_device

  subroutine fail(e)
    type(fpo_error), intent(in) :: e
    print '(a)', "fortran doors: " // fpo_message(e)
    error stop 1
  end subroutine fail
end program fortran_doors
