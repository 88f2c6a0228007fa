#!/usr/bin/env bash
# scripts/synth-memories.sh DIR [xc7|xcup-uram]: Yosys's mapping of the
# memories alone of a folder `lpmpipe rtl` wrote, at their exact shapes
# (stage_NN.hex lines x TB_WB bits, dit.hex lines x TB_DB bits), one
# read/write port each as in the stages, all in one synth_xilinx run that
# keeps the hierarchy (one module per memory: mem_stage_NN, mem_dit; a
# stage the RTL holds as parts, memories.txt, one mem_stage_NN_part_K each).
# For tables whose whole design Yosys does not finish in reasonable time
# (`lpmpipe rtl synth` synthesises the queues and the logic too, which do
# not depend on the table). No initial contents: block RAM takes them, so
# they do not change which blocks Yosys picks, but with them every block is
# a techmap specialisation of its own, which at a few hundred blocks takes
# Yosys longer than the whole synthesis otherwise. xc7: 7-series block RAM.
# xcup-uram: UltraScale+, the stage memories marked ram_style "ultra"
# (UltraRAM takes no initial contents: a design loads it through the bubble
# port), the DIT marked ram_style "block". Writes DIR/mems_MODE.{v,log,stat}.
# --json: one JSON object instead of the lines (the figures `lpmpipe report`
# keeps: reports/long/mapping-yosys.json): the cells of each kind, block RAM
# in RAMB36 equivalents (RAMB18 = 1/2), UltraRAM, LUTRAM, the memories synthesised.
set -eu
usage() { echo "usage: scripts/synth-memories.sh DIR [xc7|xcup-uram] [--json]"; }
case "${1:-}" in --help | -h) usage; exit 0 ;; esac
json=0
if [ "${3:-}" = --json ]; then json=1; set -- "$1" "$2"; elif [ "${2:-}" = --json ] && [ $# = 2 ]; then json=1; set -- "$1"; fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage >&2; exit 2; fi
dir=$1 mode=${2:-xc7}
case "$mode" in xc7) fam=xc7 ;; xcup-uram) fam=xcup ;; *) echo "synth-memories: mode '$mode' is not xc7 or xcup-uram" >&2; exit 2 ;; esac
[ -f "$dir/tb_cfg.h" ] && [ -f "$dir/dit.hex" ] || { echo "synth-memories: $dir: not a folder lpmpipe rtl wrote" >&2; exit 2; }
wb=$(sed -n 's/#define TB_WB \([0-9]*\)u/\1/p' "$dir/tb_cfg.h")
db=$(sed -n 's/#define TB_DB \([0-9]*\)u/\1/p' "$dir/tb_cfg.h")
v=$dir/mems_$mode.v
inst=""
i=0
# NAME DEPTH WIDTH: each memory (a stage held as parts, `lpmpipe rtl`'s memories.txt, one memory a part)
list() {
  if [ -f "$dir/memories.txt" ]; then
    awk '!/^#/ { if (NF == 4) print $1, $2, $4; else for (k = 4; k <= NF; k++) print $1 "_part_" (k - 4), $2, $k }' \
      "$dir/memories.txt"
  else
    for h in "$dir"/stage_*.hex "$dir"/dit.hex; do
      b=$(basename "$h" .hex)
      w=$wb
      [ "$b" = dit ] && w=$db
      echo "$b $(wc -l <"$h") $w"
    done
  fi
}
{
  while read -r b d w; do
    a=1
    while [ $((1 << a)) -lt "$d" ]; do a=$((a + 1)); done
    attr=""
    # xcup-uram: the DIT marked too, else Yosys 0.23 maps it to LUTRAM and fails
    [ "$mode" = xcup-uram ] && attr='(* ram_style = "block" *) '
    # the DIT held as parts (memories.txt) is dit_part_K: block RAM as well
    case "$b" in dit | dit_part_*) ;; *) [ "$mode" = xcup-uram ] && attr='(* ram_style = "ultra" *) ' ;; esac

    printf 'module mem_%s (input wire clk, input wire we, input wire [%u:0] ad, input wire [%u:0] wd, output reg [%u:0] rd);\n' \
      "$b" $((a - 1)) $((w - 1)) $((w - 1))
    printf '    %sreg [%u:0] mem [0:%u];\n' "$attr" $((w - 1)) $((d - 1))
    printf '    always @(posedge clk) if (we) mem[ad] <= wd; else rd <= mem[ad];\nendmodule\n'
    # each memory its own write enable and slice of the shifted pin: none is merged or constant
    inst+="    wire [$((w - 1)):0] r$i; mem_$b u$i (.clk(clk), .we(sh[$i]), .ad(sh[$((a + i)):$((i + 1))]),"
    inst+=" .wd(sh[$((w + i)):$((i + 1))]), .rd(r$i)); assign o[$i] = ^r$i;"$'\n'
    i=$((i + 1))
  done < <(list)
  printf 'module mems (input wire clk, input wire din, output reg dout);\n    reg [199:0] sh;\n    wire [%u:0] o;\n' $((i - 1))
  printf '    always @(posedge clk) begin sh <= {sh[198:0], din}; dout <= ^o; end\n%sendmodule\n' "$inst"
} >"$v"
cd "$dir"
yosys -q -q -l "mems_$mode.log" -p "read_verilog mems_$mode.v; synth_xilinx -top mems -family $fam; tee -q -o mems_$mode.stat stat"
# totals of the design hierarchy: block RAM, UltraRAM, LUTRAM
if [ $json = 0 ]; then
  awk '/=== design hierarchy ===/ { on = 1 } on && $1 ~ /^(RAMB|URAM|RAM[0-9])/ { print $1, $2 }' "mems_$mode.stat"
  exit 0
fi
awk -v mode="$mode" -v n="$i" '/=== design hierarchy ===/ { on = 1 }
  on && $1 ~ /^(RAMB|URAM|RAM[0-9])/ {
    cells = cells (cells == "" ? "" : ", ") "\"" $1 "\": " $2
    if ($1 ~ /^RAMB36/) b36 += $2; else if ($1 ~ /^RAMB18/) b18 += $2; else if ($1 ~ /^URAM/) u += $2; else lr += $2 }
  END { printf "{\"mode\": \"%s\", \"memories\": %d, \"cells\": {%s}, \"ramb36\": %d, \"ramb18\": %d, \"ramb36_equiv\": %.1f, \"uram288\": %d, \"lutram\": %d}\n",
          mode, n, cells, b36, b18, b36 + b18 / 2, u, lr }' "mems_$mode.stat"
