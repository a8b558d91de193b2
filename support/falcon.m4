# falcon.m4: autoconf macros for projects that contain Falcon (.fal) files.
#
# FALCON_PROG_FALCONC([ACTION-IF-NOT-FOUND])
#   Finds falconc (on PATH, or from pkg-config's falcon module) and sets
#   FALCONC, FALCON_CFLAGS, FALCON_LIBS (C with OpenMP), FALCON_OPENMP,
#   NVCC, FALCON_NVCCFLAGS and FALCON_CUDA_LIBS, and FALCON_TARGET to gpu
#   when nvcc was found (or given as NVCC=) and cpu otherwise.
#   --without-cuda forces the CPU target.  Use with falcon.mk, installed
#   beside this file's package in share/falcon/.
AC_DEFUN([FALCON_PROG_FALCONC],
[AC_REQUIRE([PKG_PROG_PKG_CONFIG])dnl
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--without-cuda], [compile Falcon for the CPU even if nvcc exists])],
  [], [with_cuda=auto])
PKG_CHECK_MODULES([FALCON], [falcon], [],
  [m4_default([$1], [AC_MSG_ERROR([falcon.pc not found: install falconc or set PKG_CONFIG_PATH])])])
AC_MSG_CHECKING([for falconc])
FALCONC=`$PKG_CONFIG --variable=falconc falcon`
AS_IF([test -x "$FALCONC"], [], [AC_PATH_PROG([FALCONC], [falconc])])
AC_MSG_RESULT([$FALCONC])
FALCON_OPENMP=`$PKG_CONFIG --variable=openmp_cflags falcon`
FALCON_NVCCFLAGS=`$PKG_CONFIG --variable=cuda_flags falcon`
FALCON_CUDA_LIBS=`$PKG_CONFIG --variable=cuda_libs falcon`
FALCON_TARGET=cpu
AS_IF([test "x$with_cuda" != xno],
  [AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])])
   AS_IF([test -n "$NVCC"], [FALCON_TARGET=gpu])])
AC_SUBST([FALCONC])
AC_SUBST([FALCON_OPENMP])
AC_SUBST([NVCC])
AC_SUBST([FALCON_NVCCFLAGS])
AC_SUBST([FALCON_CUDA_LIBS])
AC_SUBST([FALCON_TARGET])
])
