// @ts-check
// Recovery codes and your data as files to keep (docs/players.md): what a downloaded file of
// codes says and what the files are called. No DOM here: recovery.js shows and saves them.

/** The text of the codes' file: a title, the account, the codes numbered, what they are. */
export function codesFile(codes, { title, username, note }) {
  const lines = codes.map((code, i) => `${String(i + 1).padStart(2, " ")}. ${code}`);
  return [title, username, "", ...lines, "", note, ""].join("\n");
}

/** The codes' file name: the account's. */
export const codesFileName = (username) => `stalactites-recovery-codes-${username}.txt`;

/** Your data's file name: the player's id and the day (UTC) it was exported. */
export function exportFileName(playerId, ms) {
  return `stalactites-${playerId}-${new Date(ms).toISOString().slice(0, 10)}.json`;
}
