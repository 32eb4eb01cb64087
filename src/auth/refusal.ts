/** Why a request to /mcp is not let through: 401 or 403 with a WWW-Authenticate challenge, or 503 without. */
export class Refusal {
  constructor(
    readonly status: 401 | 403 | 503,
    /** In words that tell nothing of the credential sent. */
    readonly message: string,
    readonly challenge?: string,
  ) {}
}
