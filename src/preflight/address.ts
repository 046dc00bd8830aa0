/**
 * Where the service may not fetch from (spec 7.2, input_fetch_failed rule 1: "an address the
 * service may not fetch from"): loopback, private, link-local, unique-local, CGNAT and
 * unspecified addresses, as a table. `allowHosts` names hosts a run treats as public (a local
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

/** `::ffff:10.0.0.1` (and `::ffff:a00:1`) → `10.0.0.1`; other addresses as they are. */
function unmapped(address: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted !== null) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex === null) return address;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** "loopback", "private", …: why the service may not fetch from `address`; undefined when it may. */
export function notPublicKind(address: string): string | undefined {
  const plain = unmapped(address.replace(/^\[|\]$/g, ""));
  const family = isIP(plain);
  if (family === 0) return undefined;
  const name = family === 4 ? "ipv4" : "ipv6";
  for (const { list, range } of LISTS) if (range.family === name && list.check(plain, name)) return range.kind;
  return undefined;
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
