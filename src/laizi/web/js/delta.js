// The table's wire deltas (the twin of src/laizi/server/common/delta.py): an update frame's
// patch turns the view of the previous frame into the new one. Operations, each on a path
// of dict keys and list indices ([] is the whole view):
//   ["s", path, value]  set    ["d", path]  delete a key    ["a", path, items]  append
// applyPatch never changes its input: the containers on a changed path are copied, the rest
// shared (the previous view stays as it was: the settlement and the fairness sheet keep it).

function own(c, fresh) {
  if (fresh.has(c)) return c;
  let copy;
  if (Array.isArray(c)) copy = c.slice();
  else if (c && typeof c === "object") copy = Object.assign({}, c);
  else throw new Error("not a container");
  fresh.add(copy);
  return copy;
}

/** The view with the patch applied (throws on a patch that does not fit it). */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new Error("a patch is a list of operations");
  const fresh = new Set();
  const root = [doc];
  for (const op of ops) {
    const [kind, path] = op;
    if (!Array.isArray(path)) throw new Error("bad path");
    let cont = root;
    let key = 0;
    for (const step of path) {
      if (cont[key] === undefined) throw new Error("no such path");
      const child = own(cont[key], fresh);
      cont[key] = child;
      cont = child; key = step;
    }
    if (kind === "s") cont[key] = op[2];
    else if (kind === "d") {
      if (Array.isArray(cont)) throw new Error("delete from a list");
      delete cont[key];
    } else if (kind === "a") {
      const target = own(cont[key], fresh);
      if (!Array.isArray(target) || !Array.isArray(op[2])) throw new Error("append to a non-list");
      target.push(...op[2]);
      cont[key] = target;
    } else throw new Error("unknown operation");
  }
  return root[0];
}
