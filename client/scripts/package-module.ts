// Renders client/generated/package.ts: the package's name and version as the client names itself in
// its User-Agent, taken from client/package.json so that a version bump cannot leave them behind.

export function renderPackageModule(manifest: { name: string; version: string }): string {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(manifest.version)) throw new Error(`client/package.json: version ${manifest.version} is not semver`);
  return `/**
 * Generated from the package's package.json by the repository's \`npm run generate\`. Do not edit by
 * hand: change the package's version and regenerate (\`npm run check:generated\` fails when it is stale).
 */

/** The package's name and version, as published. */
export const CLIENT_PACKAGE = { name: ${JSON.stringify(manifest.name)}, version: ${JSON.stringify(manifest.version)} } as const;
`;
}
