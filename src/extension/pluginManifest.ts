// Whether a folder is a Claude Code plugin, read through the workspace file layer as scan reads it on disk.
import * as vscode from 'vscode';
import { PLUGIN_MANIFEST } from '../core/promptFiles';

/**
 * Whether a folder holds a plugin manifest named exactly as scan reads it (on a case-insensitive disk a stat alone also
 * finds `.Claude-Plugin`); a link named so counts, never followed.
 */
export async function holdsPluginManifest(plugin: vscode.Uri): Promise<boolean> {
  const [folderName, fileName] = PLUGIN_MANIFEST.split('/');
  const named = (uri: vscode.Uri, name: string, type: vscode.FileType) =>
    vscode.workspace.fs.readDirectory(uri).then((entries) => entries.some(([entry, kind]) => entry === name && (kind & type) !== 0), () => false);
  const manifestFolder = vscode.Uri.joinPath(plugin, folderName);
  return (await named(plugin, folderName, vscode.FileType.Directory)) && named(manifestFolder, fileName, vscode.FileType.File | vscode.FileType.SymbolicLink);
}
