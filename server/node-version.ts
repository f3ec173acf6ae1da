/** The oldest Node.js the store runs on (package.json "engines"); .nvmrc and .node-version name the one we use, 24. */
const REQUIRED = { major: 22, minor: 12 };

/** One line saying why this Node.js cannot run the store, or null when it can. */
export function nodeVersionProblem(version: string): string | null {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  if (major > REQUIRED.major || (major === REQUIRED.major && minor >= REQUIRED.minor)) return null;
  return (
    `The store needs Node.js ${REQUIRED.major}.${REQUIRED.minor} or newer (24 LTS recommended); this is Node.js ${version.replace(/^v/, "")}. ` +
    "Install Node 24 with `nvm install` or `fnm use` in this folder (both read .nvmrc), or from nodejs.org."
  );
}
