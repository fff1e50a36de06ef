// The view patches of the server's update messages: JSON Patch (RFC 6902), the `add`,
// `remove` and `replace` operations the server sends (crates/platform/server/src/patch.rs).

function unescape(token) {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function parentOf(doc, path) {
  const tokens = path.split('/').slice(1).map(unescape);
  const last = tokens.pop();
  let parent = doc;
  for (const t of tokens) {
    parent = Array.isArray(parent) ? parent[Number(t)] : parent?.[t];
    if (parent === undefined || parent === null || typeof parent !== 'object') {
      throw new Error(`patch: no ${path} in the view`);
    }
  }
  return [parent, last];
}

/** `doc` with `ops` applied (a new document; `doc` itself is not changed). */
export function applyPatch(doc, ops) {
  let out = structuredClone(doc);
  for (const op of ops) {
    if (op.path === '') {
      if (op.op === 'remove') throw new Error('patch: cannot remove the whole view');
      out = structuredClone(op.value);
      continue;
    }
    const [parent, key] = parentOf(out, op.path);
    if (Array.isArray(parent)) {
      const i = key === '-' ? parent.length : Number(key);
      if (op.op === 'add') parent.splice(i, 0, op.value);
      else if (op.op === 'replace') parent[i] = op.value;
      else if (op.op === 'remove') parent.splice(i, 1);
      else throw new Error(`patch: unknown op ${op.op}`);
    } else if (op.op === 'remove') {
      delete parent[key];
    } else if (op.op === 'add' || op.op === 'replace') {
      parent[key] = op.value;
    } else {
      throw new Error(`patch: unknown op ${op.op}`);
    }
  }
  return out;
}
