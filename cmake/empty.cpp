// Keeps every pyasc library non-empty while its folder is being filled.
