import type { OpenApiDocument, OperationObject } from "./openapi/types.ts";
import { ApiOperation } from "./ApiOperation.tsx";
import { Layout } from "./Layout.tsx";
import { InlineCode } from "./InlineCode.tsx";

/** Props of {@linkcode ApiDocsPage}. */
export interface ApiDocsPageProps {
  /** The OpenAPI document to show. */
  document: OpenApiDocument;
  /** Where the document itself is served. */
  documentPath: string;
}

/** One operation with where it lives. */
interface Entry {
  path: string;
  method: string;
  operation: OperationObject;
}

/** The API reference page: every operation of the document, grouped by tag. */
export function ApiDocsPage({ document, documentPath }: ApiDocsPageProps) {
  const groups = groupByTag(document);
  return (
    <Layout
      title="API"
      description="The lapse HTTP API, endpoint by endpoint: parameters, answers, rate limits and curl examples, from its OpenAPI document."
      current="/docs"
      styles={["/static/docs.css"]}
      wide
    >
      <h1>API</h1>
      <div class="docs">
        <nav aria-label="Endpoints" class="api-toc">
          <h2 class="api-toc-tag">Contents</h2>
          {groups.map(({ tag, entries }) => (
            <div key={tag}>
              <h3 class="api-toc-tag">{tag}</h3>
              <ul>
                {entries.map(({ path, method, operation }) => (
                  <li key={operation.operationId}>
                    <a href={`#${operation.operationId}`} title={operation.summary}>
                      <span class={`api-method api-method-${method}`}>{method.toUpperCase()}</span>
                      {" "}
                      <code>{path}</code>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <div>
          <section class="card">
            <p>
              <InlineCode text={document.info.description} />
            </p>
            <p>
              Server: <code>{document.servers[0]?.url}</code>. Version{" "}
              {document.info.version}. The same reference as an OpenAPI 3.1 document:{" "}
              <a href={documentPath}>{documentPath}</a>.
            </p>
          </section>
          {groups.map(({ tag, description, entries }) => (
            <section key={tag} class="api-group">
              <h2>{tag}</h2>
              {description && <p class="muted">{description}</p>}
              {entries.map((entry) => (
                <ApiOperation key={entry.operation.operationId} document={document} {...entry} />
              ))}
            </section>
          ))}
        </div>
      </div>
    </Layout>
  );
}

function groupByTag(document: OpenApiDocument) {
  const groups = document.tags.map((tag) => ({
    tag: tag.name,
    description: tag.description,
    entries: [] as Entry[],
  }));
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation) continue;
      const tag = operation.tags[0];
      groups.find((group) => group.tag === tag)?.entries.push({ path, method, operation });
    }
  }
  return groups.filter((group) => group.entries.length > 0);
}
