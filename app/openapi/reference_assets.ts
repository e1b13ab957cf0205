/**
 * Scalar's standalone bundle, the one script of the reference page at /api/docs, served by this
 * app (no route to any CDN needed), pinned by version and by digest (Subresource Integrity): the
 * page runs on the API's origin, where the console may keep its token, so a changed file must not
 * run there. The digest is of dist/browser/standalone.js of that version of
 * @scalar/api-reference. The versioned path is cached for a year (immutable).
 *
 * This module imports nothing: `node ace build` reads it too (bin/build_finished.ts), outside the
 * app.
 */
export const SCALAR_SCRIPT = {
  version: '1.72.1',
  file: 'scalar-api-reference-1.72.1.js',
  integrity: 'sha384-U11tb2XnKvmwt8RlTvnwUnYgrN+ur4Xyh9htLhjajWNR/Oyl5AX5DEz00qRmlrmK',
  get src() {
    return `/api/docs/assets/${this.file}`
  },
}

/**
 * Where the bundle is read from, relative to the app root, first found first:
 * - in a production build, the copy `node ace build` made (@scalar/api-reference is a
 *   devDependency: `npm ci --omit=dev` does not install it);
 * - in a checkout (`npm run dev`, the tests), the installed package.
 */
export const SCALAR_BUNDLE_IN_BUILD = `resources/api-docs/${SCALAR_SCRIPT.file}`
export const SCALAR_BUNDLE_IN_PACKAGE =
  'node_modules/@scalar/api-reference/dist/browser/standalone.js'
