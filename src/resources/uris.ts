// The URIs (and media type) of an API's resources: graphql://<api>/schema, graphql://<api>/types/{name} and
// graphql://<api>/operations/<name>. The command line describes one API, named `default`; a configuration
// of several APIs gives each its own name, and with it its own URIs.

/**
 * The media type of every resource: text/plain. Clients show and attach text/* as it is, while
 * application/graphql is no registered type, names query documents where it is used at all, and an overview
 * of a large schema (with its `… N more` lists) is no valid SDL anyway.
 */
export const RESOURCE_MIME_TYPE = 'text/plain';

/** The URIs of one API's resources. */
export interface ApiUris {
  /** The schema: whole, or its overview. */
  readonly schema: string;
  /** The template of one type's definition (RFC 6570, one variable: name). */
  readonly typeTemplate: string;
  /** One curated operation (--operations) by its name. */
  operation(name: string): string;
}

/** The URIs of the API named `api` (a name of letters, digits, `_` and `-`, valid as a URI host). */
export function apiUris(api: string): ApiUris {
  const base = `graphql://${api}`;
  return {
    schema: `${base}/schema`,
    typeTemplate: `${base}/types/{name}`,
    // GraphQL names are letters, digits and _: nothing to escape.
    operation: (name) => `${base}/operations/${name}`,
  };
}

/** A resource's name (its identifier in lists): its URI without the scheme, unique across APIs. */
export function resourceName(uri: string): string {
  return uri.replace(/^graphql:\/\//, '');
}
