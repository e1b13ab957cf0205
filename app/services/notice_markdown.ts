import MarkdownIt from 'markdown-it'

/**
 * Notice bodies: plain text or a safe subset of Markdown (CommonMark with tables and
 * strikethrough), rendered to HTML where every piece of the source's text is escaped. Raw HTML
 * is off (`html: false`: a `<script>` in the source is shown as text), links and images keep
 * markdown-it's URL check (no `javascript:`, `vbscript:`, `file:`, no `data:` but raster images),
 * and links open with `rel="noopener noreferrer nofollow"`.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false })
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('rel', 'noopener noreferrer nofollow')
  return defaultLinkOpen(tokens, idx, options, env, self)
}

export function renderNotice(body: string): string {
  return markdown.render(body)
}
