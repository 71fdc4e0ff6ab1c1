import type { OpenApiDocument, OperationObject } from "../lib/openapi/mod.ts";
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
    <Layout title="API">
      <section class="card">
        <h1>API</h1>
        <p>
          <InlineCode text={document.info.description} />
        </p>
        <p>
          Server: <code>{document.servers[0]?.url}</code>. Version{" "}
          {document.info.version}. The same reference as an OpenAPI 3.1 document:{" "}
          <a href={documentPath}>{documentPath}</a>.
        </p>
        <nav aria-label="Endpoints" class="api-toc">
          {groups.map(({ tag, entries }) => (
            <div key={tag}>
              <h2 class="api-toc-tag">{tag}</h2>
              <ul>
                {entries.map(({ path, method, operation }) => (
                  <li key={operation.operationId}>
                    <a href={`#${operation.operationId}`}>
                      <span class={`api-method api-method-${method}`}>{method.toUpperCase()}</span>
                      {" "}
                      <code>{path}</code>
                    </a>{" "}
                    <span class="muted">{operation.summary}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
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
