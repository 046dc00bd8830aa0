/**
 * Where the service may not fetch from (spec 7.2, input_fetch_failed rule 1: "an address the
 * service may not fetch from"): loopback, private, link-local, unique-local, CGNAT and
 * unspecified addresses, as a table; an IPv6 address that carries an IPv4 address (NAT64, 6to4,
 * Teredo, IPv4-mapped or -compatible) by the IPv4 address it carries. `allowHosts` names hosts a run treats as public (a local
 * mirror, a test server): `host` for any port, `host:port` for one.
 */
import { BlockList, isIP } from "node:net";

/** The ranges the service may not fetch from, with the word a message uses for each. */
const NOT_PUBLIC: ReadonlyArray<{ family: "ipv4" | "ipv6"; network: string; prefix: number; kind: string }> = [
  { family: "ipv4", network: "0.0.0.0", prefix: 8, kind: "unspecified" },
  { family: "ipv4", network: "127.0.0.0", prefix: 8, kind: "loopback" },
  { family: "ipv4", network: "10.0.0.0", prefix: 8, kind: "private" },
  { family: "ipv4", network: "172.16.0.0", prefix: 12, kind: "private" },
  { family: "ipv4", network: "192.168.0.0", prefix: 16, kind: "private" },
  { family: "ipv4", network: "169.254.0.0", prefix: 16, kind: "link-local" },
  { family: "ipv4", network: "100.64.0.0", prefix: 10, kind: "CGNAT" },
  { family: "ipv6", network: "::", prefix: 128, kind: "unspecified" },
  { family: "ipv6", network: "::1", prefix: 128, kind: "loopback" },
  { family: "ipv6", network: "fc00::", prefix: 7, kind: "unique-local" },
  { family: "ipv6", network: "fe80::", prefix: 10, kind: "link-local" },
];

const LISTS = NOT_PUBLIC.map((range) => {
  const list = new BlockList();
  list.addSubnet(range.network, range.prefix, range.family);
  return { list, range };
});

/** An IPv6 address's 16 bytes (`isIP` said 6), a trailing dotted quad included. */
function ipv6Bytes(address: string): number[] {
  let text = address.replace(/%.*$/, ""); // a zone (`fe80::1%eth0`) is not part of the address
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const groups = (part: string | undefined) => (part === undefined || part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

const dotted = (b: readonly number[], at: number): string => b.slice(at, at + 4).join(".");
const startsWith = (b: readonly number[], prefix: readonly number[]): boolean => prefix.every((x, i) => b[i] === x);
const zero = (b: readonly number[], from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);

/**
 * The IPv4 addresses an IPv6 address carries, by the form that carries them (the service's
 * fetcher may reach that IPv4 host through it): IPv4-mapped `::ffff:0:0/96` and IPv4-compatible
 * `::/96` (RFC 4291 2.5.5), NAT64 `64:ff9b::/96` (RFC 6052) and the local-use `64:ff9b:1::/48`
 * (RFC 8215: every RFC 6052 layout a /48 network may use: /48, /56, /64, /96), 6to4 `2002::/16`
 * (RFC 3056: bits 16-47) and Teredo `2001::/32` (RFC 4380: the server in bits 32-63, the client
 * in the last 32 bits, each bit inverted).
 */
export function embeddedIPv4(address: string): Array<{ ipv4: string; form: string }> {
  const b = ipv6Bytes(address);
  if (b.length !== 16) return [];
  const out: Array<{ ipv4: string; form: string }> = [];
  if (zero(b, 0, 10) && b[10] === 255 && b[11] === 255) out.push({ ipv4: dotted(b, 12), form: "IPv4-mapped" });
  // `::` and `::1` are IPv6's own unspecified and loopback addresses, judged as such first
  if (zero(b, 0, 12)) out.push({ ipv4: dotted(b, 12), form: "IPv4-compatible" });
  if (startsWith(b, [0, 0x64, 0xff, 0x9b]) && zero(b, 4, 12)) out.push({ ipv4: dotted(b, 12), form: "NAT64" });
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1])) {
    // RFC 6052 2.2: the IPv4 bytes skip bits 64-71 (the "u" octet)
    const v4 = [
      b.slice(6, 8).concat(b.slice(9, 11)),
      b.slice(7, 8).concat(b.slice(9, 12)),
      b.slice(9, 13),
      b.slice(12, 16),
    ];
    for (const quad of v4) out.push({ ipv4: quad.join("."), form: "NAT64" });
  }
  if (startsWith(b, [0x20, 0x02])) out.push({ ipv4: dotted(b, 2), form: "6to4" });
  if (startsWith(b, [0x20, 0x01, 0, 0])) {
    out.push({
      ipv4: b
        .slice(12, 16)
        .map((x) => x ^ 255)
        .join("."),
      form: "Teredo",
    });
    out.push({ ipv4: dotted(b, 4), form: "Teredo" });
  }
  return out;
}

/** The kind of a range `address` (of `family`) lies in, if any. */
function rangeKind(address: string, family: 4 | 6): string | undefined {
  const name = family === 4 ? "ipv4" : "ipv6";
  for (const { list, range } of LISTS) if (range.family === name && list.check(address, name)) return range.kind;
  return undefined;
}

/** Why the service may not fetch from an address: its range's word, and the IPv4 address an IPv6 one carries. */
export interface NotPublic {
  /** "loopback", "private", "unspecified", … */
  kind: string;
  /** the IPv4 address judged, when an IPv6 address carries it */
  ipv4?: string;
  /** how it is carried: "NAT64", "6to4", "Teredo", "IPv4-mapped", "IPv4-compatible" */
  form?: string;
}

/** Why the service may not fetch from `address`; undefined when it may. An IPv6 address that carries an IPv4 one is judged by it too. */
export function notPublic(address: string): NotPublic | undefined {
  const plain = address.replace(/^\[|\]$/g, "");
  const family = isIP(plain);
  if (family === 0) return undefined;
  if (family === 4) {
    const kind = rangeKind(plain, 4);
    return kind === undefined ? undefined : { kind };
  }
  const own = rangeKind(plain, 6);
  if (own !== undefined) return { kind: own };
  for (const { ipv4, form } of embeddedIPv4(plain)) {
    const kind = rangeKind(ipv4, 4);
    if (kind !== undefined) return { kind, ipv4, form };
  }
  return undefined;
}

/** "loopback", "private", …: why the service may not fetch from `address`; undefined when it may. */
export function notPublicKind(address: string): string | undefined {
  return notPublic(address)?.kind;
}

/** The run's allow-list: `host` (any port) or `host:port`, matched without regard to case. */
export class AllowHosts {
  private readonly anyPort = new Set<string>();
  private readonly withPort = new Set<string>();
  constructor(hosts: readonly string[] = []) {
    for (const raw of hosts) {
      const host = raw.trim().toLowerCase();
      if (host === "") continue;
      // `[::1]:8080`, `127.0.0.1:8080`, `host:8080`; a bare IPv6 address has no port
      const port = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(host);
      if (port !== null) this.withPort.add(`${unbracket(port[1]!)}:${port[2]}`);
      else this.anyPort.add(unbracket(host));
    }
  }
  has(hostname: string, port: string): boolean {
    const host = unbracket(hostname.toLowerCase());
    return this.anyPort.has(host) || this.withPort.has(`${host}:${port}`);
  }
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Resolves a host name to its addresses (every one is checked); injectable for tests. */
export type Resolver = (hostname: string) => Promise<string[]>;
