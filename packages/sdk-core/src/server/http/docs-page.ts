// Placeholder: the reference page is being written.
export function renderDocsPage(specUrl: string): string {
  return `<!doctype html><title>Palaver API</title><a href="${specUrl}">OpenAPI</a>`;
}
