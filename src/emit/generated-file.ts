/** A file of `generated/` as emit makes it, before it is written. */
export interface GeneratedFile {
  /** path relative to the output directory, `/`-separated */
  path: string;
  content: string;
  /** already in generate's prettier layout (the embedded copies of the client): not formatted again */
  formatted?: boolean;
}
