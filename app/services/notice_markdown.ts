import MarkdownIt from 'markdown-it'

/**
 * Notice bodies: plain text or a safe subset of Markdown (CommonMark with tables and
 * strikethrough), rendered to HTML where every piece of the source's text is escaped. Raw HTML
 * is off (`html: false`: a `<script>` in the source is shown as text), links and images keep
 * markdown-it's URL check (no `javascript:`, `vbscript:`, `file:`, no `data:` but raster images),
 * and links open with `rel="noopener noreferrer nofollow"`.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false })
const LINK_REL = 'noopener noreferrer nofollow'
const { escapeHtml } = markdown.utils

const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('rel', LINK_REL)
  return defaultLinkOpen(tokens, idx, options, env, self)
}

/**
 * A notice never makes its reader's browser fetch anything: an image from elsewhere would be
 * loaded by every administrator who opens it (a tracking pixel telling its author who read it,
 * when and from where). An image becomes a link to its URL, named by its alt text; only a `data:`
 * raster image (the URL check admits png, gif, jpeg, webp) stays an image, it fetches nothing.
 * The console's Content-Security-Policy (`img-src 'self' data: blob:`) is the second line.
 */
const defaultImage = markdown.renderer.rules.image!
markdown.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]
  const src = String(token.attrGet('src') ?? '')
  if (/^data:image\//i.test(src)) return defaultImage(tokens, idx, options, env, self)
  const alt = escapeHtml(self.renderInlineAsText(token.children ?? [], options, env) || src)
  // Inside a link (`[![alt](src)](href)`) the alt text alone: links do not nest.
  if (insideLink(tokens, idx)) return alt
  return `<a href="${escapeHtml(src)}" rel="${LINK_REL}">${alt}</a>`
}

function insideLink(tokens: { type: string }[], idx: number) {
  for (let i = idx - 1; i >= 0; i--) {
    if (tokens[i].type === 'link_close') return false
    if (tokens[i].type === 'link_open') return true
  }
  return false
}

export function renderNotice(body: string): string {
  return markdown.render(body)
}
