/**
 * Which model a published document says it describes (issue 42.3): its `info.x-model-id` and the
 * `<owner>/<name>` its queue paths carry (spec 4.1: `/v1/queue/<owner>/<name>/<endpoint>`, or the
 * path without `/v1/queue`). A document stored under one id that names another (a mirror's copy
 * under the wrong name, a schema URL that serves another model) loads without error, since the
 * endpoint name is the path's last segment; `vsk pull` warns with this.
 */
import { isSchemaObject } from "./walk.js";

/** At most this many paths are read (a document is bounded by the fetch; this bounds the words). */
const MAX_PATHS = 1000;

/** What in `doc` names a model other than `model`, in words; undefined when nothing does. */
export function otherModelNamed(doc: unknown, model: string): string | undefined {
  if (!isSchemaObject(doc)) return undefined;
  const said: string[] = [];
  const info = doc.info;
  const named = isSchemaObject(info) ? info["x-model-id"] : undefined;
  if (typeof named === "string" && named !== model)
    said.push(`its info.x-model-id is ${JSON.stringify(named.length > 100 ? `${named.slice(0, 99)}…` : named)}`);
  if (isSchemaObject(doc.paths)) {
    const others = new Map<string, number>();
    let total = 0;
    for (const path of Object.keys(doc.paths).slice(0, MAX_PATHS)) {
      const match = /^\/(?:v1\/queue\/)?([^/]+)\/([^/]+)\/[^/]+$/.exec(path);
      if (match === null) continue;
      total++;
      const id = `${match[1]}/${match[2]}`;
      if (id !== model) others.set(id, (others.get(id) ?? 0) + 1);
    }
    const [first] = others;
    if (first !== undefined) {
      const count = [...others.values()].reduce((a, b) => a + b, 0);
      const id = first[0].length > 100 ? `${first[0].slice(0, 99)}…` : first[0];
      said.push(
        `${count} of its ${total} queue paths name ${JSON.stringify(id)}${others.size > 1 ? " and others" : ""}`,
      );
    }
  }
  return said.length === 0 ? undefined : said.join(" and ");
}
