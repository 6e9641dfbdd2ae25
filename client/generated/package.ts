/**
 * Generated from the package's package.json by the repository's `npm run generate`. Do not edit by
 * hand: change the package's version and regenerate (`npm run check:generated` fails when it is stale).
 */

/** The package's name and version, as published. */
export const CLIENT_PACKAGE = { name: "@credential-vault/client", version: "1.0.0" } as const;
