/**
 * The unlock page as an answer, with the headers it always needs.
 * @module
 */
import { UnlockPage, type UnlockPageProps } from "../../components/UnlockPage.tsx";
import { ONWARD_FORM_CONTENT_SECURITY_POLICY, renderPage } from "./html.ts";

/**
 * The unlock page under `status`: never cached, and, when it shows the password form, under the
 * policy that lets the form's redirects end on the link's destination.
 */
export function unlockPage(props: UnlockPageProps, status: number): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (!props.problem) headers["Content-Security-Policy"] = ONWARD_FORM_CONTENT_SECURITY_POLICY;
  return renderPage(<UnlockPage {...props} />, status, headers);
}
