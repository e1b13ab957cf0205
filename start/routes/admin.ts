/*
| Routes of the admin module (see start/routes.ts).
*/
export {}
