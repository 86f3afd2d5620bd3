// The id of the build whose one-file bundles (dist/*.cjs) belong with this tsc output. tsc writes
// it empty; the bundling step (build/build-id.mjs) rewrites dist/lib/build-id.js with the id it
// stamps into every bundle. bin/load-bundle.js runs a bundle only when the two agree, so after a
// `tsc` alone the unbundled output runs: slower, never stale. Not imported by the CLI's code.
export const BUILD_ID = ''
