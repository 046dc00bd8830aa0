/**
 * undici's connector for preflight's Agent (issue 37.3): a file of its own because its signature
 * names undici's types, and no public declaration may (an entry's `.d.ts` compiles with
 * `types: []`): only preflight.ts's body imports it, so no emitted `.d.ts` of an entry reaches it.
 */
import { Lru } from "./lru.js";
import { MAX_PINS, pinKey, type Pins } from "./source.js";

/**
 * undici's `connect` for the run's Agent: a connection to host:port goes only to the addresses
 * `checkHost` pinned for that exact host and port (issue 37.3); anything else is refused. One
 * connector per host:port (its TLS sessions kept), its `lookup` answering from the pin.
 */
export function pinnedConnect(pins: Pins, buildConnector: typeof import("undici").buildConnector, timeoutMs: number) {
  const connectors = new Lru<string, import("undici").buildConnector.connector>(MAX_PINS);
  return (
    options: import("undici").buildConnector.Options,
    callback: import("undici").buildConnector.Callback,
  ): void => {
    const port = options.port || (options.protocol === "https:" ? "443" : "80");
    const key = pinKey(options.hostname, port);
    let connector = connectors.get(key);
    if (connector === undefined) {
      connector = buildConnector({ timeout: timeoutMs, lookup: pinnedLookup(pins, key) });
      connectors.set(key, connector);
    }
    connector(options, callback);
  };
}

/** A `lookup` that answers with the checked addresses of `key` (host:port) only. */
function pinnedLookup(pins: Pins, key: string) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void,
  ): void => {
    const refuse = () =>
      callback(Object.assign(new Error(`preflight: ${key} was not checked`), { code: "ENOTFOUND" }), []);
    const pin = pins.get(key);
    if (pin === undefined) return refuse();
    pin.then((addresses) => {
      if (addresses.length === 0) return refuse();
      const entries = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
      if (options.all) callback(null, entries);
      else callback(null, entries[0]!.address, entries[0]!.family);
    }, refuse);
  };
}
