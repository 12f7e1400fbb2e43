// Webview entry (browser bundle). The infection graph view is built in the graph-view issue.
export {};
