// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Base64} from "./Base64.sol";

interface IERC1155Receiver {
    function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes calldata data) external returns (bytes4);

    function onERC1155BatchReceived(
        address operator,
        address from,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external returns (bytes4);
}

/// An ERC-1155 (EIP-1155) of items for the local chains with its metadata on chain: `uri(id)` is a `data:`
/// URL of JSON naming the item ("Doorway Key", "Doorway Map", …) with an SVG image, so wallets show
/// real images offline. No owner: anyone mints.
contract DoorwayItems {
    string public name;
    string public symbol;

    mapping(uint256 => mapping(address => uint256)) private balances;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    mapping(uint256 => uint256) public totalSupply;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event URI(string value, uint256 indexed id);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0xd9b67a26 // ERC-1155
            || interfaceId == 0x0e89341c; // ERC-1155 Metadata URI
    }

    function balanceOf(address account, uint256 id) external view returns (uint256) {
        return balances[id][account];
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids) external view returns (uint256[] memory result) {
        require(accounts.length == ids.length, "ERC1155: accounts and ids length mismatch");
        result = new uint256[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) result[i] = balances[ids[i]][accounts[i]];
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        authorize(from, to);
        move(from, to, id, value);
        emit TransferSingle(msg.sender, from, to, id, value);
        checkReceived(from, to, id, value, data);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external {
        authorize(from, to);
        require(ids.length == values.length, "ERC1155: ids and values length mismatch");
        for (uint256 i = 0; i < ids.length; i++) move(from, to, ids[i], values[i]);
        emit TransferBatch(msg.sender, from, to, ids, values);
        // EIP-1155: a contract receives a batch only if it answers onERC1155BatchReceived with its selector
        if (to.code.length > 0) {
            try IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, values, data) returns (bytes4 answer) {
                require(answer == IERC1155Receiver.onERC1155BatchReceived.selector, "ERC1155: ERC1155Receiver rejected tokens");
            } catch {
                revert("ERC1155: transfer to non-ERC1155Receiver implementer");
            }
        }
    }

    /// EIP-1155 safe transfer rules hold for minting too: a contract receiver must accept.
    function mint(address to, uint256 id, uint256 amount) external {
        require(to != address(0), "ERC1155: mint to the zero address");
        bool first = totalSupply[id] == 0;
        balances[id][to] += amount;
        totalSupply[id] += amount;
        emit TransferSingle(msg.sender, address(0), to, id, amount);
        // the metadata never changes, but indexers learn an id's URI from this event (EIP-1155 Metadata)
        if (first) emit URI(uri(id), id);
        checkReceived(address(0), to, id, amount, "");
    }

    function uri(uint256 id) public pure returns (string memory) {
        (string memory itemName, string memory colour, string memory glyph) = item(id);
        string memory svg = string.concat(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 240">',
            '<rect width="240" height="240" rx="24" fill="#', colour, '"/>', glyph,
            '<text x="120" y="214" font-family="sans-serif" font-size="20" font-weight="bold" text-anchor="middle" fill="#fff">',
            itemName, "</text></svg>"
        );
        string memory json = string.concat(
            '{"name":"', itemName, '","description":"An item of the Doorway devnet, drawn on chain.",',
            '"image":"data:image/svg+xml;base64,', Base64.encode(bytes(svg)), '"}'
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    // ids 1–4 are named items, each with its colour and drawing; any other id is a plain gem.
    function item(uint256 id) private pure returns (string memory itemName, string memory colour, string memory glyph) {
        if (id == 1)
            return ("Doorway Key", "e9a23b", '<circle cx="78" cy="100" r="24" fill="none" stroke="#fff" stroke-width="12"/><path d="M100 94h80v12h-80zM160 106h10v22h-10zM140 106h10v16h-10z" fill="#fff"/>');
        if (id == 2)
            return ("Doorway Map", "2a9d8f", '<path d="M40 58l53-18 54 18 53-18v120l-53 18-54-18-53 18z" fill="#fff"/><path d="M93 40v120M147 58v120" stroke="#2a9d8f" stroke-width="3"/>');
        if (id == 3)
            return ("Doorway Lantern", "264653", '<path d="M105 62q15-28 30 0" fill="none" stroke="#fff" stroke-width="6"/><rect x="95" y="60" width="50" height="96" rx="10" fill="#fff"/><circle cx="120" cy="108" r="14" fill="#f6c945"/>');
        if (id == 4)
            return ("Doorway Compass", "457b9d", '<circle cx="120" cy="100" r="52" fill="#fff"/><path d="M120 58l12 42-12 42-12-42z" fill="#e63946"/>');
        return ("Doorway Item", "8d7dc5", '<path d="M120 48l46 50-46 62-46-62z" fill="#fff"/>');
    }

    function authorize(address from, address to) private view {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "ERC1155: caller is not token owner or approved");
        require(to != address(0), "ERC1155: transfer to the zero address");
    }

    function move(address from, address to, uint256 id, uint256 value) private {
        uint256 balance = balances[id][from];
        require(balance >= value, "ERC1155: insufficient balance for transfer");
        unchecked {
            balances[id][from] = balance - value;
        }
        balances[id][to] += value;
    }

    // EIP-1155: a contract receives only if it answers onERC1155Received with that function's selector
    function checkReceived(address from, address to, uint256 id, uint256 value, bytes memory data) private {
        if (to.code.length == 0) return;
        try IERC1155Receiver(to).onERC1155Received(msg.sender, from, id, value, data) returns (bytes4 answer) {
            require(answer == IERC1155Receiver.onERC1155Received.selector, "ERC1155: ERC1155Receiver rejected tokens");
        } catch {
            revert("ERC1155: transfer to non-ERC1155Receiver implementer");
        }
    }
}
