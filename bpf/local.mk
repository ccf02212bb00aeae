# SPDX-License-Identifier: GPL-2.0-or-later
# The BPF object is compiled with clang for the BPF target and embedded in the
# dio binary as a bpftool skeleton.
BPF_CFLAGS = -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_TARGET_ARCH) -Wall -Wno-unused-function \
	-I$(top_builddir)/bpf -I$(top_srcdir)/bpf -I$(top_srcdir)/include $(BPF_SYS_INCLUDES)

# the BPF helpers, one header per job (see dio.bpf.c)
DIO_BPF_HDRS = bpf/maps.bpf.h bpf/compat.bpf.h bpf/task.bpf.h bpf/file.bpf.h bpf/emit.bpf.h \
	bpf/path.bpf.h bpf/top.bpf.h
EXTRA_DIST += bpf/dio.bpf.c bpf/dio.h bpf/topcount.h bpf/vmlinux_x86_64.h $(DIO_BPF_HDRS)
CLEANFILES += bpf/vmlinux.h bpf/dio.bpf.o bpf/dio.skel.h
BUILT_SOURCES += bpf/dio.skel.h

# vmlinux.h from the build machine's BTF when it has one, else the checked-in copy.
bpf/vmlinux.h: $(top_srcdir)/bpf/vmlinux_x86_64.h
	$(AM_V_GEN)$(MKDIR_P) bpf && \
	if test -n "$(VMLINUX_BTF)" && test -r "$(VMLINUX_BTF)"; then \
		$(BPFTOOL) btf dump file "$(VMLINUX_BTF)" format c > $@.tmp; \
	else \
		cp $(top_srcdir)/bpf/vmlinux_x86_64.h $@.tmp; \
	fi && mv $@.tmp $@

bpf/dio.bpf.o: $(top_srcdir)/bpf/dio.bpf.c $(top_srcdir)/bpf/dio.h $(top_srcdir)/bpf/topcount.h \
		$(DIO_BPF_HDRS:%=$(top_srcdir)/%) \
		$(top_srcdir)/include/dio/event.h bpf/vmlinux.h
	$(AM_V_CC)$(CLANG) $(BPF_CFLAGS) -c $(top_srcdir)/bpf/dio.bpf.c -o $@.tmp && \
	$(LLVM_STRIP) -g $@.tmp && mv $@.tmp $@

bpf/dio.skel.h: bpf/dio.bpf.o
	$(AM_V_GEN)$(BPFTOOL) gen skeleton $< name dio_bpf > $@.tmp && mv $@.tmp $@
