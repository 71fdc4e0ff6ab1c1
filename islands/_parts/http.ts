/**
 * Talking to the API from an island: JSON in, JSON out, and one sentence when it fails.
 * @module
 */

/** An answer of the API: its status and its parsed JSON body. */
export interface ApiAnswer {
  /** HTTP status; 0 when the service could not be reached. */
  status: number;
  /** The parsed body, or `null` when there was none. */
  body: unknown;
}

/** Sends `body` as JSON (when given) with `method` to `path` and reads the JSON answer. */
export async function callApi(method: string, path: string, body?: unknown): Promise<ApiAnswer> {
  try {
    const res = await fetch(path, {
      method,
      headers: body === undefined
        ? { Accept: "application/json" }
        : { "Content-Type": "application/json", Accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: null };
  }
}

/** The sentence to show for a failed answer. */
export function errorSentence(answer: ApiAnswer): string {
  const error = (answer.body as { error?: unknown } | null)?.error;
  if (typeof error === "string" && error) return error;
  if (answer.status === 0) return "the service could not be reached, try again";
  return `the request failed (${answer.status})`;
}
