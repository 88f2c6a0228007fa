// placeholder: the Icarus testbench
