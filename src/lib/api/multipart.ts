/**
 * A multipart/form-data body built by undici's FormData (never by hand), serialised once so the
 * client can send it as a raw body. undici is imported lazily, as in client.ts, for start-up time.
 */
export async function multipartBody(
  fields: Record<string, string | undefined>,
  file: {name: string; bytes: Uint8Array; type: string},
): Promise<{rawBody: Uint8Array; contentType: string}> {
  const {FormData, Response} = await import('undici')
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value)
  form.append('file', new Blob([new Uint8Array(file.bytes)], {type: file.type}), file.name)
  const encoded = new Response(form)
  return {
    rawBody: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? 'multipart/form-data',
  }
}
