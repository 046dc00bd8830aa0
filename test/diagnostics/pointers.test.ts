/**
 * A field's label is redacted before it is quoted (issue 23.2): a field name holding a signed URL
 * loses its query string inside the quotes, and the quotes and escapes around it stay whole, so a
 * message never depends on a redaction of its finished text. Names that are not URLs stay as written.
 */
import { describe, expect, it } from "vitest";
import { fieldLabel } from "../../src/diagnostics/index.js";

const cases: [string, { given: string; want: string }][] = [
  ["a plain name", { given: "/keyframes/1/frame_index", want: "keyframes[1].frame_index" }],
  [
    "a URL with a quote and a query string",
    { given: '/https:~1~1h.example~1p"q?sig=SECRET', want: '["https://h.example/p\\"q"]' },
  ],
  [
    "a URL whose query ends the name",
    { given: "/x/https:~1~1cdn.example~1a.png?token=t", want: 'x["https://cdn.example/a.png"]' },
  ],
  ["an issue reference is not a URL", { given: "/octo-org~1repo#2", want: '["octo-org/repo#2"]' }],
  ["a Markdown heading is not a URL", { given: "/## Forged", want: '["## Forged"]' }],
];

describe("fieldLabel", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(fieldLabel(given)).toBe(want);
    expect(fieldLabel(given)).not.toContain("SECRET");
  });
});
