/**
 * The names of the 93 definitions of the pinned upstream schema (`a2a.schema.json`), so that tests
 * generated per definition keep their names when the schema is not beside the project: they are then
 * registered and skipped rather than missing. `schemas/coverage.test.ts` checks this list against the
 * schema wherever the schema is present.
 *
 * @module
 */

/** Every upstream definition name, in the schema's order. */
export const upstreamDefinitionNames: ReadonlyArray<string> = [
  "A2AError", "A2ARequest", "APIKeySecurityScheme", "AgentCapabilities", "AgentCard", "AgentCardSignature",
  "AgentExtension", "AgentInterface", "AgentProvider", "AgentSkill", "Artifact",
  "AuthenticatedExtendedCardNotConfiguredError", "AuthorizationCodeOAuthFlow", "CancelTaskRequest",
  "CancelTaskResponse", "CancelTaskSuccessResponse", "ClientCredentialsOAuthFlow", "ContentTypeNotSupportedError",
  "DataPart", "DeleteTaskPushNotificationConfigParams", "DeleteTaskPushNotificationConfigRequest",
  "DeleteTaskPushNotificationConfigResponse", "DeleteTaskPushNotificationConfigSuccessResponse", "FileBase",
  "FilePart", "FileWithBytes", "FileWithUri", "GetAuthenticatedExtendedCardRequest",
  "GetAuthenticatedExtendedCardResponse", "GetAuthenticatedExtendedCardSuccessResponse",
  "GetTaskPushNotificationConfigParams", "GetTaskPushNotificationConfigRequest",
  "GetTaskPushNotificationConfigResponse", "GetTaskPushNotificationConfigSuccessResponse", "GetTaskRequest",
  "GetTaskResponse", "GetTaskSuccessResponse", "HTTPAuthSecurityScheme", "ImplicitOAuthFlow", "InternalError",
  "InvalidAgentResponseError", "InvalidParamsError", "InvalidRequestError", "JSONParseError", "JSONRPCError",
  "JSONRPCErrorResponse", "JSONRPCMessage", "JSONRPCRequest", "JSONRPCResponse", "JSONRPCSuccessResponse",
  "ListTaskPushNotificationConfigParams", "ListTaskPushNotificationConfigRequest",
  "ListTaskPushNotificationConfigResponse", "ListTaskPushNotificationConfigSuccessResponse", "Message",
  "MessageSendConfiguration", "MessageSendParams", "MethodNotFoundError", "MutualTLSSecurityScheme",
  "OAuth2SecurityScheme", "OAuthFlows", "OpenIdConnectSecurityScheme", "Part", "PartBase", "PasswordOAuthFlow",
  "PushNotificationAuthenticationInfo", "PushNotificationConfig", "PushNotificationNotSupportedError",
  "SecurityScheme", "SecuritySchemeBase", "SendMessageRequest", "SendMessageResponse", "SendMessageSuccessResponse",
  "SendStreamingMessageRequest", "SendStreamingMessageResponse", "SendStreamingMessageSuccessResponse",
  "SetTaskPushNotificationConfigRequest", "SetTaskPushNotificationConfigResponse",
  "SetTaskPushNotificationConfigSuccessResponse", "Task", "TaskArtifactUpdateEvent", "TaskIdParams",
  "TaskNotCancelableError", "TaskNotFoundError", "TaskPushNotificationConfig", "TaskQueryParams",
  "TaskResubscriptionRequest", "TaskState", "TaskStatus", "TaskStatusUpdateEvent", "TextPart", "TransportProtocol",
  "UnsupportedOperationError"
]
