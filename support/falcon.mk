# falcon.mk: make rules for projects that mix Falcon (.fal) and C files.
# Include it from a GNU Makefile and set, e.g. from pkg-config falcon:
#
#   FALCONC           the compiler
#   FALCON_TARGET     gpu (CUDA through nvcc) or cpu (C with OpenMP)
#   FALCON_CFLAGS     -I for falcon's headers (pkg-config --cflags falcon)
#   FALCON_LIBS       libfalcon for the CPU target (pkg-config --libs falcon)
#   FALCON_OPENMP     the C compiler's OpenMP flag
#   NVCC, FALCON_NVCCFLAGS, FALCON_CUDA_LIBS   for the GPU target
#
# Then x.o builds from x.fal (falconc writes x.fal.cu or x.fal.c beside
# it, kept for reading), and $(FALCON_LINK) links the program: nvcc for the
# GPU target, $(CC) otherwise.  Non-static functions of a .fal file have C
# linkage, so C files can call them.

FALCONC ?= falconc
FALCON_TARGET ?= cpu

ifeq ($(FALCON_TARGET),gpu)
%.o: %.fal
	$(FALCONC) -o $<.cu $<
	$(NVCC) $(FALCON_NVCCFLAGS) $(FALCON_CFLAGS) -c -o $@ $<.cu
FALCON_LINK = $(NVCC) $(FALCON_NVCCFLAGS)
FALCON_LINK_LIBS = $(FALCON_CUDA_LIBS)
else
%.o: %.fal
	$(FALCONC) --target=cpu -o $<.c $<
	$(CC) -std=c11 $(CFLAGS) $(FALCON_OPENMP) $(FALCON_CFLAGS) -c -o $@ $<.c
FALCON_LINK = $(CC) $(CFLAGS) $(FALCON_OPENMP)
FALCON_LINK_LIBS = $(FALCON_LIBS)
endif
