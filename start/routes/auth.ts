/*
| Routes of the auth module (see start/routes.ts).
*/
export {}
