/**
 * A map that keeps at most `capacity` entries, dropping the least recently used (a Map keeps
 * insertion order: a hit moves its key to the end). The preflight run's verdicts per URL and its
 * address pins per host are kept in these, so that a run's memory does not grow with its input
 * (issue 37.6).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }
  delete(key: K): void {
    this.map.delete(key);
  }
  get size(): number {
    return this.map.size;
  }
}
