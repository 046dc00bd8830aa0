/** "Did you mean": the candidate closest to a mistyped command, option or key. */
import { quote } from "./words.js";

/** Edit distance with adjacent transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `word` (case-insensitive, leading dashes aside), when it is close
 * enough to be a typo: at most one edit per three characters, or a prefix of three characters
 * or more. Words under three characters get no guess, except for a difference of case.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const bare = (s: string): string => s.replace(/^-+/, "").toLowerCase();
  const w = bare(word);
  const limit = w.length < 3 ? 0 : Math.floor(w.length / 3);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const c = bare(candidate);
    const d = w.length >= 3 && c.startsWith(w) ? 1 : distance(w, c);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(limit, w.length < 3 ? 0 : 1) ? best : undefined;
}

/** `; did you mean "x"?` or nothing. */
export function didYouMean(word: string, candidates: Iterable<string>, show: (s: string) => string = quote): string {
  const hit = closest(word, candidates);
  return hit === undefined ? "" : `; did you mean ${show(hit)}?`;
}
