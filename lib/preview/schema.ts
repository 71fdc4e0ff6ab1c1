/**
 * The preview's query and answer, as zod schemas.
 * @module
 */
import { z } from "zod";

const text = (description: string) => z.string().describe(`${description}; \`""\` when unknown`);
// An absolute address, or `""` when unknown.
const address = (description: string) =>
  z.union([z.url(), z.literal("")]).describe(`${description}; \`""\` when unknown`);

/** A preview: the final address and what the page says about itself. */
export const pagePreview = z.object({
  url: z.url().describe("The address finally reached, after redirects"),
  host: z.string().describe("Its host"),
  title: text("`og:title`, else `twitter:title`, else `<title>`"),
  description: text(
    '`og:description`, else `twitter:description`, else `<meta name="description">`',
  ),
  siteName: text('`og:site_name`, else `<meta name="application-name">`'),
  image: address("`og:image`, else `twitter:image`, absolute"),
  canonical: address('`<link rel="canonical">`, else `og:url`, absolute'),
});

/** A preview as the API answers it. */
export type PagePreview = z.infer<typeof pagePreview>;

/** The query of `GET /api/preview`: the page's address; blank counts as missing. */
export const previewQuery = z.object({
  url: z.string().trim().min(1, "url is required").describe(
    "The page's address; `https://` is prepended when it has no `scheme://`",
  ),
});
