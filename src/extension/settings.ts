// The one place settings are read: typed by SettingValues (ids.ts), defaults taken from package.json, per scope (a
// workspace folder) or from the user level only where a workspace must not decide (LLM endpoint, extra roots).
import * as vscode from 'vscode';
import { contributes } from '../../package.json';
import { SETTINGS_SECTION, type SettingId, type SettingValues } from './ids';

const PROPERTIES = contributes.configuration.properties as Record<string, { default?: unknown }>;

/** The package.json default of a setting. */
export function settingDefault<K extends SettingId>(id: K): SettingValues[K] {
  return PROPERTIES[`${SETTINGS_SECTION}.${id}`]?.default as SettingValues[K];
}

/** The effective value of a setting for a scope (a folder, a document), else its default. */
export function setting<K extends SettingId>(id: K, scope?: vscode.ConfigurationScope): SettingValues[K] {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).get<SettingValues[K]>(id) ?? settingDefault(id);
}

/** The value the user set (folder, workspace or user level), undefined when only the default applies. */
export function explicitSetting<K extends SettingId>(id: K, scope?: vscode.ConfigurationScope): SettingValues[K] | undefined {
  const inspected = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope).inspect<SettingValues[K]>(id);
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}

/** The user-level value, else the default: what a workspace's own settings cannot change. */
export function userSetting<K extends SettingId>(id: K): SettingValues[K] {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<SettingValues[K]>(id)?.globalValue ?? settingDefault(id);
}

/** True when a configuration change touches a setting, or every setting of a group ("harden", "integrity"). */
export function affects(event: vscode.ConfigurationChangeEvent, id: SettingId | SettingGroup, scope?: vscode.ConfigurationScope): boolean {
  return event.affectsConfiguration(`${SETTINGS_SECTION}.${id}`, scope);
}

/** The first part of a setting id: its feature. */
export type SettingGroup = SettingId extends `${infer Group}.${string}` ? Group : never;
