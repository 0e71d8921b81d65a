! fpo.f90: takes FPO's runtime types (fpo_runtime.h), gives them to Fortran as bind(C) types,
! with fpo_field_of: an ordinary Fortran array, explicit bounds and all, as a field (no copy).
! Compiled by fpo_add_program(... FORTRAN) into the project's library fpo_fortran.
module fpo
  use, intrinsic :: iso_c_binding
  implicit none
  private
  public :: fpo_field, fpo_domain, fpo_options, fpo_error, fpo_memory
  public :: fpo_field_of, fpo_field_on_device, fpo_domain_local, fpo_message

  ! fpo_dtype, fpo_axes, fpo_space and fpo_status
  integer(c_int), parameter, public :: FPO_F32 = 0, FPO_F64 = 1, FPO_I32 = 2, FPO_BOOL = 3
  integer(c_int), parameter, public :: FPO_IJK = 0, FPO_IJ = 1, FPO_K = 2
  integer(c_int), parameter, public :: FPO_HOST = 0, FPO_DEVICE = 1
  integer(c_int), parameter, public :: FPO_OK = 0, FPO_EINVAL = 1, FPO_ESHAPE = 2, &
      FPO_EDTYPE = 3, FPO_ENOMEM = 4, FPO_EMISMATCH = 5, FPO_ECHECK = 6, FPO_EHALO = 7

  ! A field: data is the element of index (lo(1), lo(2), lo(3)) (I, J, K, from 0 at the compute
  ! domain's first point); it covers [lo, hi) on each axis; strides in elements.
  type, bind(C) :: fpo_field
    type(c_ptr) :: data = c_null_ptr
    integer(c_int) :: dtype = FPO_F64, axes = FPO_IJK
    integer(c_int64_t) :: lo(3) = 0, hi(3) = 0, stride(3) = 0
    integer(c_int) :: space = FPO_HOST
  end type fpo_field

  ! The rank's domain: compute-domain sizes, and where it sits on its tile.
  type, bind(C) :: fpo_domain
    integer(c_int) :: nx = 0, ny = 0, nz = 0, i0 = 0, j0 = 0, tile_nx = 0, tile_ny = 0, tile = 0
  end type fpo_domain

  ! Options of open_with: halo is the address of the rank's fpo_halo_decomp (C's); variant and
  ! backend NUL-terminated strings (c_loc of a character(kind=c_char) array), or null;
  ! cuda_stream the CUDA stream to queue runs on (OpenACC: acc_get_cuda_stream), or null.
  type, bind(C) :: fpo_options
    type(c_ptr) :: halo = c_null_ptr, user = c_null_ptr
    type(c_ptr) :: variant = c_null_ptr, backend = c_null_ptr
    type(c_ptr) :: cuda_stream = c_null_ptr
  end type fpo_options

  ! What failed: a status and a message (fpo_message gives it as a Fortran string).
  type, bind(C) :: fpo_error
    integer(c_int) :: code = FPO_OK
    character(kind=c_char) :: msg(512) = c_null_char
  end type fpo_error

  ! What an opened program holds for its temporaries (fpo_memory).
  type, bind(C) :: fpo_memory
    integer(c_size_t) :: pool_bytes = 0, unfused_bytes = 0, array_bytes = 0, plane_bytes = 0, &
        strip_bytes = 0
    integer(c_int) :: arrays = 0, planes = 0, scalars = 0, strips = 0, threads = 0, streamed = 0, &
        graphs = 0
  end type fpo_memory

  ! fpo_field_of(a, is, js [, ks]) for 3D arrays, (a, is, js) for 2D (IJ), (a [, ks]) for 1D
  ! (K): a is a whole array with the TARGET attribute, any bounds (q(isd:ied, jsd:jed, npz)),
  ! contiguous (I fastest, as Fortran stores it); (is, js, ks) are the indices of the compute
  ! domain's first point (ks default 1). The field points into a: no copy, and a must live
  ! as long as the program uses it.
  interface fpo_field_of
    module procedure f64_3d, f64_2d, f64_1d, f32_3d, &
        f32_2d, f32_1d, i32_3d, i32_2d, &
        i32_1d, bool_3d, bool_2d, bool_1d
  end interface fpo_field_of

contains

  ! A whole tile: i0 = j0 = 0, tile_nx = nx, tile_ny = ny, tile 0 (fpo_domain_local).
  function fpo_domain_local(nx, ny, nz) result(d)
    integer, intent(in) :: nx, ny, nz
    type(fpo_domain) :: d
    d = fpo_domain(nx, ny, nz, 0, 0, nx, ny, 0)
  end function fpo_domain_local

  ! The message of err, up to its NUL.
  function fpo_message(err) result(s)
    type(fpo_error), intent(in) :: err
    character(len=:), allocatable :: s
    integer :: n
    n = 0
    do while (n < size(err%msg))
      if (err%msg(n + 1) == c_null_char) exit
      n = n + 1
    end do
    allocate(character(len=n) :: s)
    s = transfer(err%msg(1:n), s)
  end function fpo_message

  ! f with its data in a CUDA device's memory, for the CUDA back end: fpo_field_of of an array
  ! whose address is the device copy's (OpenACC: inside !$acc host_data use_device(a)).
  function fpo_field_on_device(f) result(d)
    type(fpo_field), intent(in) :: f
    type(fpo_field) :: d
    d = f
    d%space = FPO_DEVICE
  end function fpo_field_on_device

  integer function k0(ks)
    integer, intent(in), optional :: ks
    k0 = 1
    if (present(ks)) k0 = ks
  end function k0

  ! The descriptor of an array whose first element is at p, with bounds lb:ub on the axes the
  ! field has (I, J, K in order), origin the indices of FPO's point 0 on each.
  function describe(p, dtype, axes, lb, ub, origin, contiguous) result(f)
    type(c_ptr), intent(in) :: p
    integer(c_int), intent(in) :: dtype, axes
    integer, intent(in) :: lb(:), ub(:), origin(:)
    logical, intent(in) :: contiguous
    type(fpo_field) :: f
    integer :: held(3), n, d
    integer(c_int64_t) :: stride
    if (.not. contiguous) error stop "fpo_field_of: the array is not contiguous " // &
        "(pass a whole array, I fastest)"
    held = [1, 2, 3]
    if (axes == FPO_IJ) held = [1, 2, 0]
    if (axes == FPO_K) held = [3, 0, 0]
    f%data = p
    f%dtype = dtype
    f%axes = axes
    f%lo = 0
    f%hi = 1
    f%stride = 0
    stride = 1
    do n = 1, size(lb)
      d = held(n)
      f%lo(d) = lb(n) - origin(n)
      f%hi(d) = ub(n) - origin(n) + 1
      f%stride(d) = stride
      stride = stride * max(0, ub(n) - lb(n) + 1)
    end do
  end function describe

  function f64_3d(a, is, js, ks) result(f)
    real(c_double), pointer, intent(in) :: a(:, :, :)
    integer, intent(in) :: is, js
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2), lbound(a, 3)))
    f = describe(p, FPO_F64, FPO_IJK, lbound(a), ubound(a), [is, js, k0(ks)], is_contiguous(a))
  end function f64_3d

  function f64_2d(a, is, js) result(f)
    real(c_double), pointer, intent(in) :: a(:, :)
    integer, intent(in) :: is, js
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2)))
    f = describe(p, FPO_F64, FPO_IJ, lbound(a), ubound(a), [is, js], is_contiguous(a))
  end function f64_2d

  function f64_1d(a, ks) result(f)
    real(c_double), pointer, intent(in) :: a(:)
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1)))
    f = describe(p, FPO_F64, FPO_K, lbound(a), ubound(a), [k0(ks)], is_contiguous(a))
  end function f64_1d

  function f32_3d(a, is, js, ks) result(f)
    real(c_float), pointer, intent(in) :: a(:, :, :)
    integer, intent(in) :: is, js
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2), lbound(a, 3)))
    f = describe(p, FPO_F32, FPO_IJK, lbound(a), ubound(a), [is, js, k0(ks)], is_contiguous(a))
  end function f32_3d

  function f32_2d(a, is, js) result(f)
    real(c_float), pointer, intent(in) :: a(:, :)
    integer, intent(in) :: is, js
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2)))
    f = describe(p, FPO_F32, FPO_IJ, lbound(a), ubound(a), [is, js], is_contiguous(a))
  end function f32_2d

  function f32_1d(a, ks) result(f)
    real(c_float), pointer, intent(in) :: a(:)
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1)))
    f = describe(p, FPO_F32, FPO_K, lbound(a), ubound(a), [k0(ks)], is_contiguous(a))
  end function f32_1d

  function i32_3d(a, is, js, ks) result(f)
    integer(c_int32_t), pointer, intent(in) :: a(:, :, :)
    integer, intent(in) :: is, js
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2), lbound(a, 3)))
    f = describe(p, FPO_I32, FPO_IJK, lbound(a), ubound(a), [is, js, k0(ks)], is_contiguous(a))
  end function i32_3d

  function i32_2d(a, is, js) result(f)
    integer(c_int32_t), pointer, intent(in) :: a(:, :)
    integer, intent(in) :: is, js
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2)))
    f = describe(p, FPO_I32, FPO_IJ, lbound(a), ubound(a), [is, js], is_contiguous(a))
  end function i32_2d

  function i32_1d(a, ks) result(f)
    integer(c_int32_t), pointer, intent(in) :: a(:)
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1)))
    f = describe(p, FPO_I32, FPO_K, lbound(a), ubound(a), [k0(ks)], is_contiguous(a))
  end function i32_1d

  function bool_3d(a, is, js, ks) result(f)
    logical(c_bool), pointer, intent(in) :: a(:, :, :)
    integer, intent(in) :: is, js
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2), lbound(a, 3)))
    f = describe(p, FPO_BOOL, FPO_IJK, lbound(a), ubound(a), [is, js, k0(ks)], is_contiguous(a))
  end function bool_3d

  function bool_2d(a, is, js) result(f)
    logical(c_bool), pointer, intent(in) :: a(:, :)
    integer, intent(in) :: is, js
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1), lbound(a, 2)))
    f = describe(p, FPO_BOOL, FPO_IJ, lbound(a), ubound(a), [is, js], is_contiguous(a))
  end function bool_2d

  function bool_1d(a, ks) result(f)
    logical(c_bool), pointer, intent(in) :: a(:)
    integer, intent(in), optional :: ks
    type(fpo_field) :: f
    type(c_ptr) :: p
    p = c_null_ptr
    if (size(a) > 0) p = c_loc(a(lbound(a, 1)))
    f = describe(p, FPO_BOOL, FPO_K, lbound(a), ubound(a), [k0(ks)], is_contiguous(a))
  end function bool_1d
end module fpo
