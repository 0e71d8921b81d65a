! step.f90: the example model's time step from Fortran: em_step through its module em_step_fpo
! on the model's own arrays (q(isd:ied, jsd:jed, npz), ...), the setup (grid, decomposition,
! winds) and h's fingerprint from the C library fpo_example_host (host.h). Same command line
! as fpo_example_model (-n N -z NZ -d DAYS -s STEPS); run on 6 ranks.
program em_step_fortran
  use, intrinsic :: iso_c_binding
  use em_step_fpo
  implicit none
  interface
    type(c_ptr) function em_host_new(n, nz, days, steps) bind(C)
      import
      integer(c_int), value :: n, nz, steps
      real(c_double), value :: days
    end function em_host_new
    integer(c_int) function em_host_steps(h) bind(C)
      import
      type(c_ptr), value :: h
    end function em_host_steps
    subroutine em_host_shape(h, shape) bind(C)
      import
      type(c_ptr), value :: h
      integer(c_int), intent(out) :: shape(4)
    end subroutine em_host_shape
    subroutine em_host_domain(h, d) bind(C)
      import
      type(c_ptr), value :: h
      type(fpo_domain), intent(out) :: d
    end subroutine em_host_domain
    type(c_ptr) function em_host_decomp(h) bind(C)
      import
      type(c_ptr), value :: h
    end function em_host_decomp
    type(c_ptr) function em_host_array(h, name) bind(C)
      import
      type(c_ptr), value :: h
      character(kind=c_char), intent(in) :: name(*)
    end function em_host_array
    integer(c_int) function em_host_finish(h) bind(C)
      import
      type(c_ptr), value :: h
    end function em_host_finish
  end interface

  real(c_double), allocatable, target :: q(:, :, :), crx(:, :, :), cry(:, :, :), xfx(:, :, :), &
      yfx(:, :, :), area(:, :), rarea(:, :), dxa(:, :), dya(:, :)
  type(c_ptr) :: h, step
  type(em_step_fields) :: f
  type(fpo_domain) :: dom
  type(fpo_options) :: opt
  type(fpo_error) :: err
  integer(c_int) :: shape(4)
  integer :: isd, ied, jsd, jed, npz, s

  h = em_host_new(nint(option("-n", 24d0)), nint(option("-z", 5d0)), option("-d", 12d0), &
                  nint(option("-s", 0d0)))
  if (.not. c_associated(h)) error stop 1
  call em_host_shape(h, shape)
  call em_host_domain(h, dom)
  ! compute point (1, 1) is the first of the rank's domain; halos of shape(4) (one more point
  ! east and north: the arrays cover cell faces too)
  isd = 1 - shape(4)
  ied = isd + shape(1) - 1
  jsd = 1 - shape(4)
  jed = jsd + shape(2) - 1
  npz = shape(3)
  allocate(q(isd:ied, jsd:jed, npz), crx(isd:ied, jsd:jed, npz), cry(isd:ied, jsd:jed, npz), &
           xfx(isd:ied, jsd:jed, npz), yfx(isd:ied, jsd:jed, npz), area(isd:ied, jsd:jed), &
           rarea(isd:ied, jsd:jed), dxa(isd:ied, jsd:jed), dya(isd:ied, jsd:jed))
  call from_host3("q", q)
  call from_host3("crx", crx)
  call from_host3("cry", cry)
  call from_host3("xfx", xfx)
  call from_host3("yfx", yfx)
  call from_host2("area", area)
  call from_host2("rarea", rarea)
  call from_host2("dxa", dxa)
  call from_host2("dya", dya)

  f%q = fpo_field_of(q, 1, 1)
  f%crx = fpo_field_of(crx, 1, 1)
  f%cry = fpo_field_of(cry, 1, 1)
  f%xfx = fpo_field_of(xfx, 1, 1)
  f%yfx = fpo_field_of(yfx, 1, 1)
  f%area = fpo_field_of(area, 1, 1)
  f%rarea = fpo_field_of(rarea, 1, 1)
  f%dxa = fpo_field_of(dxa, 1, 1)
  f%dya = fpo_field_of(dya, 1, 1)
  opt%halo = em_host_decomp(h)
  if (em_step_open_with(step, dom, f, opt, err) /= FPO_OK) call fail(err)
  do s = 1, em_host_steps(h)
    if (em_step_run(step, err) /= FPO_OK) call fail(err)
  end do
  call em_step_close(step)
  call to_host3("q", q)
  deallocate(q, crx, cry, xfx, yfx, area, rarea, dxa, dya)
  if (em_host_finish(h) /= 0) error stop 1

contains

  ! The value after `flag` on the command line, else `default`.
  real(c_double) function option(flag, default)
    character(*), intent(in) :: flag
    real(c_double), intent(in) :: default
    character(len=64) :: arg
    integer :: k
    option = default
    do k = 1, command_argument_count() - 1
      call get_command_argument(k, arg)
      if (arg == flag) then
        call get_command_argument(k + 1, arg)
        read(arg, *) option
      end if
    end do
  end function option

  subroutine from_host3(name, a)
    character(*), intent(in) :: name
    real(c_double), intent(out) :: a(:, :, :)
    real(c_double), pointer :: p(:, :, :)
    call c_f_pointer(em_host_array(h, name // c_null_char), p, [size(a, 1), size(a, 2), size(a, 3)])
    a = p
  end subroutine from_host3

  subroutine from_host2(name, a)
    character(*), intent(in) :: name
    real(c_double), intent(out) :: a(:, :)
    real(c_double), pointer :: p(:, :)
    call c_f_pointer(em_host_array(h, name // c_null_char), p, [size(a, 1), size(a, 2)])
    a = p
  end subroutine from_host2

  subroutine to_host3(name, a)
    character(*), intent(in) :: name
    real(c_double), intent(in) :: a(:, :, :)
    real(c_double), pointer :: p(:, :, :)
    call c_f_pointer(em_host_array(h, name // c_null_char), p, [size(a, 1), size(a, 2), size(a, 3)])
    p = a
  end subroutine to_host3

  subroutine fail(e)
    type(fpo_error), intent(in) :: e
    write(*, '(a)') "em_step_fortran: " // fpo_message(e)
    error stop 1
  end subroutine fail
end program em_step_fortran
