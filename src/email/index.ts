export { createEmailSender, type EmailSender } from './sender.js';
