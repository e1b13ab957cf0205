/*
| Routes of the public module (see start/routes.ts).
*/
export {}
