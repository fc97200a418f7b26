// Placeholder; filled in by the issues that build this module.
