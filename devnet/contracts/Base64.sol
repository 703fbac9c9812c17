// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Base64 (RFC 4648, with padding) for on-chain `data:` URLs; OpenZeppelin's algorithm.
library Base64 {
    string internal constant TABLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    function encode(bytes memory data) internal pure returns (string memory) {
        if (data.length == 0) return "";
        string memory table = TABLE;
        // 4 characters for every 3 bytes, the last group padded
        string memory result = new string(4 * ((data.length + 2) / 3));
        assembly ("memory-safe") {
            // one byte before the table's characters: an mload from there has character i in its lowest byte
            let tablePtr := add(table, 1)
            let resultPtr := add(result, 0x20)
            let dataPtr := data
            let endPtr := add(data, mload(data))
            // the last group may read up to 2 bytes past the data: zero them for the loop, restore after
            let afterPtr := add(endPtr, 0x20)
            let afterCache := mload(afterPtr)
            mstore(afterPtr, 0x00)
            for {} lt(dataPtr, endPtr) {} {
                // 3 bytes in the lowest 24 bits of the word, then 4 characters of 6 bits each
                dataPtr := add(dataPtr, 3)
                let input := mload(dataPtr)
                mstore8(resultPtr, mload(add(tablePtr, and(shr(18, input), 0x3F))))
                mstore8(add(resultPtr, 1), mload(add(tablePtr, and(shr(12, input), 0x3F))))
                mstore8(add(resultPtr, 2), mload(add(tablePtr, and(shr(6, input), 0x3F))))
                mstore8(add(resultPtr, 3), mload(add(tablePtr, and(input, 0x3F))))
                resultPtr := add(resultPtr, 4)
            }
            mstore(afterPtr, afterCache)
            // "=" for each byte missing from the last group
            switch mod(mload(data), 3)
            case 1 {
                mstore8(sub(resultPtr, 1), 0x3d)
                mstore8(sub(resultPtr, 2), 0x3d)
            }
            case 2 {
                mstore8(sub(resultPtr, 1), 0x3d)
            }
        }
        return result;
    }
}
