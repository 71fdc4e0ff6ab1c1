import {
  curlCommand,
  exampleResponse,
  type FieldRow,
  fieldsOf,
  isRef,
  resolveResponse,
  rulesOf,
  typeOf,
} from "./openapi/present.ts";
import type { OpenApiDocument, OperationObject } from "./openapi/types.ts";
import { InlineCode } from "./InlineCode.tsx";

/** Props of {@linkcode ApiOperation}. */
export interface ApiOperationProps {
  /** The document the operation is in, for shared responses and the server. */
  document: OpenApiDocument;
  /** The path, as the document writes it. */
  path: string;
  /** The method, lower case. */
  method: string;
  operation: OperationObject;
}

/**
 * One operation: method and path, what it does, its limit, parameters, body fields, responses
 * and an example (a curl command, the body sent and the answer).
 */
export function ApiOperation({ document, path, method, operation }: ApiOperationProps) {
  const limit = operation["x-rate-limit"];
  const body = operation.requestBody;
  const bodyMedia = body ? Object.values(body.content)[0] : undefined;
  const responses = Object.entries(operation.responses);
  const own = responses.filter(([, response]) => !isRef(response));
  const shared = responses.filter(([, response]) => isRef(response));
  const example = exampleResponse(operation);
  const answerFields = example ? fieldsOf(example.media.schema) : [];
  return (
    <article class="card api-op" id={operation.operationId}>
      <h3>
        <span class={`api-method api-method-${method}`}>{method.toUpperCase()}</span>{" "}
        <code>{path}</code>
      </h3>
      <p>
        <strong>{operation.summary}</strong>
      </p>
      {operation.description && (
        <p>
          <InlineCode text={operation.description} />
        </p>
      )}
      <p class="muted">
        {limit
          ? `Rate limit: ${limit.limit} requests per ${windowName(limit.windowSeconds)} per client.`
          : "Not rate limited."}
        {operation.security && " An unlock cookie (unlock_<slug>) reveals a protected destination."}
      </p>
      {operation.parameters && (
        <>
          <h4>Parameters</h4>
          <FieldTable
            label={`Parameters of ${method.toUpperCase()} ${path}`}
            rows={operation.parameters.map((parameter) => ({
              name: `${parameter.name} (${parameter.in})`,
              type: typeOf(parameter.schema),
              required: parameter.required,
              rules: rulesOf(parameter.schema),
              description: parameter.description ?? "",
            }))}
          />
        </>
      )}
      {body && bodyMedia && (
        <>
          <h4>Body</h4>
          <p class="muted">
            {Object.keys(body.content).map((type, i) => (
              <span key={type}>
                {i > 0 && " or "}
                <code>{type}</code>
              </span>
            ))}
          </p>
          <FieldTable
            label={`Body of ${method.toUpperCase()} ${path}`}
            rows={fieldsOf(bodyMedia.schema)}
          />
        </>
      )}
      <h4>Responses</h4>
      <dl class="api-responses">
        {own.map(([status, response]) => {
          const { description, content } = resolveResponse(document, response);
          return (
            <div key={status}>
              <dt>
                <code>{status}</code>
              </dt>
              <dd>
                <InlineCode text={description} />
                {content && <span class="muted">{` (${Object.keys(content).join(", ")})`}</span>}
              </dd>
            </div>
          );
        })}
      </dl>
      {shared.length > 0 && (
        <p class="muted">
          Also, as everywhere: {shared.map(([status, response], i) => (
            <span key={status}>
              {i > 0 && "; "}
              <code>{status}</code>{" "}
              <InlineCode text={resolveResponse(document, response).description} />
            </span>
          ))}. Every error body is <code>{'{"error": "<sentence>"}'}</code>.
        </p>
      )}
      {answerFields.length > 0 && example && (
        <>
          <h4>Fields of the {example.status} answer</h4>
          <FieldTable
            label={`Fields of the ${example.status} answer of ${method.toUpperCase()} ${path}`}
            rows={answerFields}
          />
        </>
      )}
      <h4>Example</h4>
      <pre class="api-example"><code>{curlCommand(document, { path, method, operation })}</code></pre>
      {bodyMedia?.example !== undefined && (
        <>
          <p class="muted">Body sent:</p>
          <pre class="api-example"><code>{JSON.stringify(bodyMedia.example, null, 2)}</code></pre>
        </>
      )}
      {example && (
        <>
          <p class="muted">
            Answer <code>{example.status}</code> (<code>{example.type}</code>):
          </p>
          <pre class="api-example"><code>{showExample(example.media.example)}</code></pre>
        </>
      )}
    </article>
  );
}

/** Props of {@linkcode FieldTable}. */
export interface FieldTableProps {
  /** What the table is, for a reader that reaches it by keyboard. */
  label: string;
  rows: FieldRow[];
}

/** A table of fields: name, type, whether required, rules and description. */
export function FieldTable({ label, rows }: FieldTableProps) {
  if (rows.length === 0) return null;
  return (
    // Focusable, and named: on a narrow screen it scrolls sideways, and a keyboard scrolls only
    // what it can focus. (The examples wrap instead, so they never need the focus.)
    <div class="api-table" tabIndex={0} role="region" aria-label={label}>
      <table>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <td>
                <code>{row.name}</code>
              </td>
              <td>
                <code>{row.type}</code>
              </td>
              <td>{row.required ? "yes" : "no"}</td>
              <td>
                <InlineCode text={row.description} />
                {row.rules && (
                  <span class="muted">
                    {row.description ? " " : ""}(<InlineCode text={row.rules} />)
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function windowName(seconds: number): string {
  if (seconds === 60) return "minute";
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} s`;
}

function showExample(example: unknown): string {
  return typeof example === "string" ? example : JSON.stringify(example, null, 2);
}
