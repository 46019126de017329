/** A search's length, as plain constants: the API's schema, its search and the app share them. */

/** A search asks for at least this many characters: the index holds runs of three. */
export const SEARCH_MIN_CHARS = 3;
export const SEARCH_MAX_CHARS = 100;
