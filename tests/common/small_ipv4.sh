# Sourced by end-to-end scripts: a small IPv4 table (4,000 prefixes under
# 10/8..13/8 and a default route, 40 next hops) and update traces against
# it (every 4th a withdrawal), the same bytes for the same arguments.
small_ipv4_fib() { # FILE
  awk 'BEGIN { srand(7); print "0.0.0.0/0 dflt";
    for (i = 0; i < 4000; i++) { a = int(rand() * 4) + 10; b = int(rand() * 256); c = int(rand() * 256); d = int(rand() * 256);
      l = 8 + int(rand() * 23); ip = a * 16777216 + b * 65536 + c * 256 + d; m = 2 ^ (32 - l); ip = int(ip / m) * m;
      printf "%d.%d.%d.%d/%d nh%d\n", int(ip / 16777216), int(ip / 65536) % 256, int(ip / 256) % 256, ip % 256, l, i % 40 } }' >"$1"
}
small_ipv4_updates() { # FILE COUNT
  awk -v n="$2" 'BEGIN { srand(5); for (i = 0; i < n; i++) { a = 10 + int(rand() * 4); b = int(rand() * 256); l = 12 + int(rand() * 13);
    ip = a * 16777216 + b * 65536 + int(rand() * 65536); m = 2 ^ (32 - l); ip = int(ip / m) * m;
    printf "%d %s %d.%d.%d.%d/%d%s\n", i, (i % 4 == 3 ? "w" : "a"), int(ip / 16777216), int(ip / 65536) % 256, int(ip / 256) % 256, ip % 256, l, (i % 4 == 3 ? "" : " up" i % 7) } }' >"$1"
}
