//! Generic Smitsimax search for simultaneous-move games (work in progress).
