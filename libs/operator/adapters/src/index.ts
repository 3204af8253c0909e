export * from './operator-http.module';
export { ConsoleSessionStore, CONSOLE_LOGIN_ATTEMPTS, CONSOLE_SESSION_TTL_SECONDS } from './interface/console/console-session.store';
