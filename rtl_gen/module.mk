# rtl_gen: the fixed Verilog and testbench texts are embedded into lpmpipe
# (generated C arrays), so that `lpmpipe rtl` needs nothing from the source
# tree at run time. The Verilator testbench itself is compiled at
# `rtl verify` time by Verilator's make, never into lpmpipe.
# (rules here come before the Makefile's own: keep `all` the default goal)
.DEFAULT_GOAL := all
RTL_EMBED := rtl_gen/lpm_ctl.v rtl_gen/lpm_ctl3.v rtl_gen/lpm_queue.v rtl_gen/lpm_rlane.v rtl_gen/lpm_credit.v rtl_gen/tb.cpp rtl_gen/tb_icarus.v sim/ready.h \
    rtl_gen/lpm_ice40_brams.txt rtl_gen/lpm_ice40_brams_map.v
EXTRA_OBJS += $(BUILD)/rtl_gen/embed.o

$(BUILD)/rtl_gen/embed.c: $(RTL_EMBED) rtl_gen/module.mk
	@mkdir -p $(dir $@)
	@{ for f in $(RTL_EMBED); do n=lpm_rtl_$$(basename $$f | tr . _); \
	   echo "extern const char $$n[]; const char $$n[] = {"; xxd -i <$$f; echo ", 0 };"; done; } >$@.tmp && mv $@.tmp $@

$(BUILD)/rtl_gen/embed.o: $(BUILD)/rtl_gen/embed.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@
