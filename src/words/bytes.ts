/**
 * Byte counts for people, in one way across the commands: an amount read or found (`byteSize`,
 * rounded: "138 B", "1.5 MiB") and a limit a user may have set (`limitSize`, exact: "8 MiB",
 * "64 KiB", "1000 bytes"), so a message never rounds a limit into a number the user did not write.
 */

const UNITS = ["KiB", "MiB", "GiB", "TiB"] as const;

/** An amount: `138 B`, `12 KiB`, `1.5 MiB` (binary units, at most one decimal). */
export function byteSize(n: number): string {
  if (n < 1024) return `${n} B`;
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) ((value /= 1024), unit++);
  return `${value.toFixed(1).replace(/\.0$/, "")} ${UNITS[unit]}`;
}

/** A limit, exactly: `8 MiB`, `64 KiB`, `1000 bytes` (the largest unit that divides it). */
export function limitSize(n: number): string {
  for (let unit = UNITS.length - 1; unit >= 0; unit--) {
    const size = 1024 ** (unit + 1);
    if (n >= size && n % size === 0) return `${n / size} ${UNITS[unit]}`;
  }
  return `${n} bytes`;
}
