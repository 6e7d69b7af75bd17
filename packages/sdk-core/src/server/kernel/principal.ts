/** Who is calling: the project, the credential kind and the human the request is scoped to. */
export interface Principal {
  project: string;
  kind: 'key' | 'token';
  /** The usage token's human, or the `x-human-id` sent with an API key; null for project-wide calls. */
  human: string | null;
  /** Id of the API key or usage token. */
  credentialId: string;
}
