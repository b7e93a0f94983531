// The one pass-through wrapper of `fetch` the drivers share: it records the JSON-RPC method and the answer's
// error code (null for a result) of every request, and changes neither request nor answer.

/** Wraps globalThis.fetch so that every JSON-RPC request made after it is pushed to `sent` as {method, code}. */
export function recordRequests(sent) {
  const fetch = globalThis.fetch;
  globalThis.fetch = async (resource, options) => {
    const response = await fetch(resource, options);
    let method = null;
    try { method = JSON.parse(options.body).method; } catch { /* not a JSON-RPC request */ }
    if (method !== null) {
      let code = null;
      try { code = JSON.parse(await response.clone().text()).error?.code ?? null; } catch { /* not JSON */ }
      sent.push({ method, code });
    }
    return response;
  };
}
