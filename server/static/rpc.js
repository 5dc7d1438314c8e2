// The page's client of a game's service over the Connect protocol (JSON), served by server/web.py from
// the same handlers as gRPC. The chosen game's folder names its service (setService); credentials go in
// headers only: the seat or spectator token in `spellbook-session-token` (never in a URL), an API key in
// `authorization`.
let SERVICE = "";
/** The service every call goes to: the chosen game's ("/abracadawhat.v1.AbracadaWhatService/"). */
export function setService(path) { SERVICE = path; }
const END_STREAM = 0x02;

export class RpcError extends Error {
  /** A refused or failed call: `code` is the Connect code ("invalid_argument", "permission_denied"...),
   *  `fields` the request fields a google.rpc.BadRequest / PreconditionFailure names. */
  constructor(code, message, details = []) {
    super(message || code);
    this.code = code;
    this.details = details;
    this.fields = [];
    for (const d of details) {
      for (const v of (d.debug && (d.debug.fieldViolations || d.debug.violations)) || []) {
        this.fields.push(v.field || v.subject);
      }
    }
  }
}

let API_KEY = "";
/** The server's API key, for a server started with keys (sent as `authorization: Bearer KEY`). */
export function setApiKey(key) { API_KEY = key || ""; }

function headers(contentType, { token, apiKey = API_KEY, timeoutMs } = {}) {
  const h = { "Content-Type": contentType, "Connect-Protocol-Version": "1" };
  if (token) h["spellbook-session-token"] = token;
  if (apiKey) h["Authorization"] = `Bearer ${apiKey}`;
  if (timeoutMs) h["Connect-Timeout-Ms"] = String(Math.round(timeoutMs));
  return h;
}

/** A unary call: resolves to the response message (proto3 JSON: camelCase, 64-bit integers as strings). */
export async function call(method, request = {}, opts = {}) {
  let response;
  try {
    response = await fetch(SERVICE + method, {
      method: "POST", headers: headers("application/json", opts), body: JSON.stringify(request),
      signal: opts.signal, cache: "no-store", credentials: "omit",
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new RpcError("unavailable", `the server cannot be reached (${e.message})`);
  }
  const text = await response.text();
  let body = {};
  try { body = text ? JSON.parse(text) : {}; } catch { body = { message: text }; }
  if (!response.ok) throw new RpcError(body.code || "unknown", body.message || response.statusText, body.details);
  return body;
}

function envelope(message) {
  const data = new TextEncoder().encode(JSON.stringify(message));
  const out = new Uint8Array(5 + data.length);
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, 5);
  return out;
}

/** A server-streaming call: `onMessage` gets each message as it arrives; resolves when the stream ends,
 *  rejects with RpcError when it ends with an error. Abort with `opts.signal`. */
export async function stream(method, request, onMessage, opts = {}) {
  let response;
  try {
    response = await fetch(SERVICE + method, {
      method: "POST", headers: headers("application/connect+json", opts), body: envelope(request),
      signal: opts.signal, cache: "no-store", credentials: "omit",
    });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new RpcError("unavailable", `the server cannot be reached (${e.message})`);
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new RpcError(body.code || "unknown", body.message || response.statusText, body.details);
  }
  const reader = response.body.getReader();
  let buffer = new Uint8Array(0);
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (value) {
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer); joined.set(value, buffer.length);
      buffer = joined;
    }
    while (buffer.length >= 5) {
      const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      const flags = view.getUint8(0), length = view.getUint32(1);
      if (buffer.length < 5 + length) break;
      const message = JSON.parse(decoder.decode(buffer.subarray(5, 5 + length)) || "{}");
      buffer = buffer.slice(5 + length);
      if (flags & END_STREAM) {
        if (message.error) throw new RpcError(message.error.code, message.error.message, message.error.details);
        return;
      }
      await onMessage(message);
    }
    if (done) throw new RpcError("unavailable", "the stream ended without its end message");
  }
}
