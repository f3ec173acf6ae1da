/**
 * Start-up steps of each feature, registered with onStartup() in the order they
 * must run. Imported once by entry.server.tsx.
 */
export {};
